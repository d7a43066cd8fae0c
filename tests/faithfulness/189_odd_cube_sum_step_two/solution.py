def odd_cube_sum(n):
    return sum(i ** 3 for i in range(1, n + 1, 2))
