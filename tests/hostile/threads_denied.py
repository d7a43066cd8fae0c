# job: calls f
# expect: call=raised:RuntimeError
import threading

def f(x):
    t = threading.Thread(target=lambda: None)
    t.start()
    t.join()
    return 1
