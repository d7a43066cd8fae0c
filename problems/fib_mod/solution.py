def fib_mod(n: int, m: int) -> int:
    a, b = 0, 1
    bits = bin(n)[2:]
    for bit in bits:
        c = a * (2 * b - a) % m
        d = (a * a + b * b) % m
        if bit == "1":
            a, b = d, (c + d) % m
        else:
            a, b = c, d
    return a % m
