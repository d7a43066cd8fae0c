n = int(input())
a = list(map(int, input().split()))
best = a[0]
out = []
for x in a:
    best = max(best, x)
    out.append(str(best))
print(" ".join(out))
