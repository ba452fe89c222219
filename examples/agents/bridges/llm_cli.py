#!/usr/bin/env python3
"""Simon Willison's `llm` CLI (PyPI `llm`) as a MarathonMemBench agent, over the process protocol.

A bridge: each message is one `llm` command in the conversation it continues (`--cid`); a new
conversation is a new one. `llm`'s own state (logs.db, its conversations) lives in
MMB_AGENT_HOME/llm through LLM_USER_PATH, its model is the one the engine names. Run key:
"command": ["python3", "bridges/llm_cli.py", "/path/to/llm"]. Standard library only.
"""
import json, os, shutil, subprocess, sys
from datetime import datetime, timezone

LLM = sys.argv[1] if len(sys.argv) > 1 else "llm"
HOME = os.environ["MMB_AGENT_HOME"]
USER_PATH, STATE = os.path.join(HOME, "llm"), os.path.join(HOME, "state.json")
ENV = {**os.environ, "LLM_USER_PATH": USER_PATH}

def load():
    if not os.path.exists(STATE): return {"replies": [], "keys": [], "cid": None}
    with open(STATE) as f: return json.load(f)

def save(state):
    with open(STATE + ".tmp", "w") as f: json.dump(state, f)
    os.replace(STATE + ".tmp", STATE)

def configure():
    """Points llm at the engine's model: an extra OpenAI-compatible model and its key."""
    os.makedirs(USER_PATH, exist_ok=True)
    with open(os.path.join(USER_PATH, "extra-openai-models.yaml"), "w") as f:
        f.write(f'- model_id: mmb\n  model_name: {json.dumps(os.environ.get("MMB_MODEL", "stand-in"))}\n'
                f'  api_base: {json.dumps(os.environ["MMB_MODEL_BASE_URL"])}\n  api_key_name: mmb\n')
    with open(os.path.join(USER_PATH, "keys.json"), "w") as f:
        json.dump({"mmb": os.environ.get("MMB_MODEL_API_KEY", "none")}, f)

def llm(*args):
    done = subprocess.run([LLM, *args], env=ENV, stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=600)
    if done.returncode != 0: raise RuntimeError(f"llm exited {done.returncode}: {done.stderr.strip()[-300:]}")
    return done.stdout

def send(state, text, key):
    if key in state["keys"]: return None
    answer = llm("prompt", "-m", "mmb", *(["--cid", state["cid"]] if state["cid"] else []), text).strip()
    if not state["cid"]: state["cid"] = json.loads(llm("logs", "list", "-n", "1", "--json"))[0]["conversation_id"]
    state["replies"].append({"seq": len(state["replies"]) + 1, "text": answer, "at": datetime.now(timezone.utc).isoformat()})
    state["keys"].append(key)
    save(state)

def handle(method, params, state):
    if method == "initialize": return {"protocol": 1, "name": "llm", "methods": ["new_conversation", "status"], "memory_dir": "llm"}
    if method == "create": configure(); return None
    if method == "send": return send(state, params["text"], params["key"])
    if method == "responses": return {"messages": [r for r in state["replies"] if r["seq"] > params["after"]]}
    if method == "new_conversation": state["cid"] = None; save(state); return None
    if method == "status": return {"state": "idle"}
    if method == "destroy":
        shutil.rmtree(HOME, ignore_errors=True); os.makedirs(HOME, exist_ok=True); state.clear(); state.update(load()); configure(); return None
    if method == "shutdown": return None
    raise ValueError("unknown method " + method)

state = load()
for line in sys.stdin:
    request = json.loads(line)
    try: reply = {"id": request["id"], "result": handle(request["method"], request.get("params", {}), state)}
    except Exception as error: reply = {"id": request["id"], "error": {"code": type(error).__name__, "message": str(error)}}
    print(json.dumps(reply), flush=True)
    if request["method"] == "shutdown": break
