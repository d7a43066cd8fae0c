import math

t = int(input())
for _ in range(t):
    x1, y1, x2, y2 = map(int, input().split())
    dx = x2 - x1
    dy = y2 - y1
    print(math.sqrt(dx * dx + dy * dy))
