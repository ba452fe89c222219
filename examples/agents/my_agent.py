#!/usr/bin/env python3
"""A complete agent for MarathonMemBench's process protocol, version 1 (docs/agent-protocol.md).

Standard library only. Every statement the user makes goes into memory/notes.jsonl, its long-term
memory, which outlives a new conversation; each reply asks the OpenAI-compatible model the engine
names (MMB_MODEL_BASE_URL: the stand-in in a rehearsal) with the notes of earlier conversations
in front. Its state lives in MMB_AGENT_HOME, so a restarted engine finds its replies again.
"""
import errno, json, os, shutil, sys, urllib.request
from datetime import datetime, timezone

HOME = os.environ["MMB_AGENT_HOME"]
NOTES, STATE = os.path.join(HOME, "memory", "notes.jsonl"), os.path.join(HOME, "state.json")

def load():
    if not os.path.exists(STATE): return {"replies": [], "conversation": [], "keys": []}
    with open(STATE) as f: return json.load(f)

def write_whole(path, text):  # written aside and renamed: a kill, or a full disk, never leaves half a file
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path + ".tmp", "w") as f: f.write(text)
    os.replace(path + ".tmp", path)

def save(state):
    write_whole(STATE, json.dumps(state))

def notes():
    if not os.path.exists(NOTES): return []
    with open(NOTES) as f: return [json.loads(line) for line in f if line.strip()]

def ask_model(messages):
    base = os.environ["MMB_MODEL_BASE_URL"].rstrip("/")
    body = json.dumps({"model": os.environ.get("MMB_MODEL", "stand-in"), "messages": messages}).encode()
    headers = {"content-type": "application/json", "authorization": "Bearer " + os.environ.get("MMB_MODEL_API_KEY", "none")}
    with urllib.request.urlopen(urllib.request.Request(base + "/chat/completions", body, headers), timeout=120) as reply:
        return json.load(reply)["choices"][0]["message"]["content"] or ""

def send(state, text, key):
    if key in state["keys"]: return None  # the same key twice: a resumed run, already answered
    said = [m["content"] for m in state["conversation"] if m["role"] == "user"]
    earlier = [note for note in notes() if note not in said]
    messages = [{"role": "system", "content": "You are a helpful personal assistant. Answer briefly."}]
    if earlier: messages.append({"role": "user", "content": "Notes from our earlier conversations: " + " ".join(earlier)})
    messages += state["conversation"] + [{"role": "user", "content": text}]
    answer = ask_model(messages)
    # Kept only once both files are written: a failed write (a full disk) leaves the state as it was, and the
    # engine sends the message again after it resumes. A note written before is not written twice.
    known = notes()
    if "?" not in text and text not in known: write_whole(NOTES, "".join(json.dumps(note) + "\n" for note in known + [text]))
    at = datetime.now(timezone.utc).isoformat()
    reply = {"seq": len(state["replies"]) + 1, "text": answer, "at": at, "reply_to": key}  # reply_to: the message it answers
    following = {"conversation": state["conversation"] + [{"role": "user", "content": text}, {"role": "assistant", "content": answer}],
                 "replies": state["replies"] + [reply], "keys": state["keys"] + [key]}
    save(following)
    state.update(following)

def handle(method, params, state):
    if method == "initialize":
        return {"protocol": 1, "name": "my_agent.py", "methods": ["new_conversation", "status"], "memory_dir": "memory"}
    if method == "send": return send(state, params["text"], params["key"])
    if method == "responses": return {"messages": [r for r in state["replies"] if r["seq"] > params["after"]]}
    if method == "new_conversation": state["conversation"] = []; save(state); return None
    if method == "status": return {"state": "idle", "context_tokens": sum(len(m["content"]) // 4 for m in state["conversation"])}
    if method == "destroy": shutil.rmtree(HOME, ignore_errors=True); state.clear(); state.update(load()); return None
    if method in ("create", "shutdown"): return None
    raise ValueError("unknown method " + method)

def main():
    state = load()
    for line in sys.stdin:  # one request per line; replies on stdout, logs on stderr
        request = json.loads(line)
        try:
            reply = {"id": request["id"], "result": handle(request["method"], request.get("params", {}), state)}
        except Exception as error:  # errors are data: the engine shows the message; a full disk's code (ENOSPC) stops the run to resume
            code = type(error).__name__
            if isinstance(error, OSError) and error.errno: code = errno.errorcode.get(error.errno, code)
            reply = {"id": request["id"], "error": {"code": code, "message": str(error)}}
        print(json.dumps(reply), flush=True)
        if request["method"] == "shutdown": return

if __name__ == "__main__":
    main()
