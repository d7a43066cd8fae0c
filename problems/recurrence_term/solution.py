from typing import List


def recurrence_term(coeffs: List[int], initial: List[int], n: int, m: int) -> int:
    def multiply(x, y):
        size = len(x)
        product = [[0] * size for _ in range(size)]
        for i in range(size):
            for t in range(size):
                for j in range(size):
                    product[i][j] = (product[i][j] + x[i][t] * y[t][j]) % m
        return product

    k = len(coeffs)
    if n < k:
        return initial[n] % m
    step = [[0] * k for _ in range(k)]
    step[0] = [c % m for c in coeffs]
    for i in range(1, k):
        step[i][i - 1] = 1
    power = [[int(i == j) for j in range(k)] for i in range(k)]
    e = n - k + 1
    while e > 0:
        if e % 2 == 1:
            power = multiply(power, step)
        step = multiply(step, step)
        e //= 2
    return sum(power[0][j] * initial[k - 1 - j] for j in range(k)) % m


def valid(coeffs, initial, n, m):
    return 1 <= len(coeffs) == len(initial) and n >= 0 and m >= 1
