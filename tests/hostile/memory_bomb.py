# job: calls f
# expect: call=memory
def f(x):
    blocks = []
    while True:
        blocks.append([0] * (1 << 24))  # 128 MiB each, written
