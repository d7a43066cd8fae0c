r, c = map(int, input().split())
grid = [input() for _ in range(r)]
count = 0
for i in range(r):
    for j in range(c):
        if grid[i][j] == "#":
            alone = True
            if i > 0 and grid[i - 1][j] == "#":
                alone = False
            if i < r - 1 and grid[i + 1][j] == "#":
                alone = False
            if j > 0 and grid[i][j - 1] == "#":
                alone = False
            if j < c - 1 and grid[i][j + 1] == "#":
                alone = False
            if alone:
                count += 1
print(count)
