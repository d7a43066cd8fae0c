from math import isqrt


def largestPalindrome(n: int) -> int:
    if n == 1:
        return 9
    hi = 10 ** n - 1
    lo = 10 ** (n - 1)
    base = 10 ** n
    # Write the factors as a = 10^n - x, b = 10^n - y (1 <= x, y).  Then
    # a*b = (10^n - z) * 10^n + x*y with z = x + y; when x*y < 10^n the upper
    # half of the 2n-digit product is 10^n - z and the lower half is x*y, so a
    # palindrome needs x*y = reverse(upper): x, y are the roots of
    # t^2 - z t + reverse(upper) = 0.  Trying z upwards walks the candidate
    # palindromes from the largest down.
    for z in range(2, base):
        upper = base - z
        lower = int(str(upper)[::-1])
        disc = z * z - 4 * lower
        if disc < 0:
            continue
        r = isqrt(disc)
        if r * r != disc or (z + r) % 2:
            continue
        x = (z + r) // 2
        y = z - x
        a, b = base - x, base - y
        pal = upper * base + lower
        if lo <= a <= hi and lo <= b <= hi and a * b == pal:
            return pal % 1337
    # Exhaustive fallback (not reached for 1 <= n <= 8).
    best = 0
    for a in range(lo, hi + 1):
        for b in range(a, hi + 1):
            p = a * b
            if p > best and str(p) == str(p)[::-1]:
                best = p
    return best % 1337


def valid(n):
    """The statement's domain: 1 <= n <= 8."""
    return isinstance(n, int) and 1 <= n <= 8
