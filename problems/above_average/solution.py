n = int(input())
scores = list(map(int, input().split()))
mean = sum(scores) / n
above = 0
for s in scores:
    if s > mean:
        above += 1
print(mean, above)
