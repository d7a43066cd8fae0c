t = int(input())
for _ in range(t):
    s = input()
    best = 0
    run = 0
    for ch in s:
        if ch == "1":
            run += 1
            best = max(best, run)
        else:
            run = 0
    print(best)
