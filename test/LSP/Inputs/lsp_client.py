"""A minimal LSP client: starts the server given on the command line, sends
initialize, initialized and a textDocument/didOpen of FILE, prints each
diagnostic the server publishes for it ("line:character: message"), then
shuts the server down. Exits non-zero when no diagnostics arrive in time."""
import json
import pathlib
import subprocess
import sys
import threading


def send(proc, message):
    body = json.dumps(message).encode()
    proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
    proc.stdin.flush()


def receive(proc):
    length = None
    while True:
        line = proc.stdout.readline()
        if not line:
            return None
        line = line.strip()
        if not line:
            break
        key, _, value = line.partition(b":")
        if key.lower() == b"content-length":
            length = int(value)
    return json.loads(proc.stdout.read(length))


def main():
    server, path = sys.argv[1], pathlib.Path(sys.argv[2]).resolve()
    proc = subprocess.Popen([server], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    timer = threading.Timer(60, proc.kill)
    timer.start()
    uri = path.as_uri()
    send(proc, {"jsonrpc": "2.0", "id": 1, "method": "initialize",
                "params": {"processId": None, "rootUri": None,
                           "capabilities": {}}})
    while True:
        m = receive(proc)
        if m is None or m.get("id") == 1:
            break
    print("initialized:", m is not None and "capabilities" in m["result"])
    send(proc, {"jsonrpc": "2.0", "method": "initialized", "params": {}})
    send(proc, {"jsonrpc": "2.0", "method": "textDocument/didOpen",
                "params": {"textDocument": {"uri": uri, "languageId": "mlir",
                                            "version": 1,
                                            "text": path.read_text()}}})
    found = False
    while True:
        m = receive(proc)
        if m is None:
            break
        if m.get("method") == "textDocument/publishDiagnostics":
            for d in m["params"]["diagnostics"]:
                start = d["range"]["start"]
                print(f"{start['line'] + 1}:{start['character'] + 1}: "
                      f"{d['message']}")
                found = True
            break
    send(proc, {"jsonrpc": "2.0", "id": 2, "method": "shutdown"})
    send(proc, {"jsonrpc": "2.0", "method": "exit"})
    proc.wait(timeout=30)
    timer.cancel()
    sys.exit(0 if found else 1)


main()
