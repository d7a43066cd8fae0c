# job: calls f
# expect: call=raised:OSError
# Connects to a listener the test opened on the host's 127.0.0.1.
import socket

def f(port):
    s = socket.create_connection(("127.0.0.1", port), timeout=0.5)
    s.sendall(b"hello")
    return "connected"
