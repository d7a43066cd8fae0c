s = input()
counts = [0] * 10
for ch in s:
    counts[int(ch)] += 1
for d in range(10):
    if counts[d] > 0:
        print(d, counts[d])
