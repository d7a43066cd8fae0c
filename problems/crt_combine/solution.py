from typing import List


def crt_combine(residues: List[int], moduli: List[int]) -> int:
    def ext_gcd(a, b):
        old_r, r = a, b
        old_s, s = 1, 0
        while r != 0:
            q = old_r // r
            old_r, r = r, old_r - q * r
            old_s, s = s, old_s - q * s
        return old_r, old_s

    x, m = 0, 1
    for rem, mod in zip(residues, moduli):
        g, p = ext_gcd(m, mod)
        diff = rem - x
        if diff % g != 0:
            return -1
        step = diff // g * p % (mod // g)
        x = x + m * step
        m = m // g * mod
        x %= m
    return x
