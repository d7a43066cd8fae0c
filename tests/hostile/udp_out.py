# job: calls f
# expect: call=raised:OSError
import socket

def f(x):
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.sendto(b"x", ("1.1.1.1", 53))
    return 1
