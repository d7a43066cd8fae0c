def beautifulSubstrings(s: str, k: int) -> int:
    # A balanced substring of length 2v is beautiful iff v*v % k == 0, i.e.
    # iff v is a multiple of m = prod p^ceil(e/2) over k = prod p^e.  With
    # prefix indices i < j that means: equal vowel-minus-consonant balance
    # and (j - i) divisible by 2m.
    if k < 1 or any(not 'a' <= ch <= 'z' for ch in s):
        raise ValueError('s must be lowercase English letters and k >= 1')
    m = 1
    x = k
    p = 2
    while p * p <= x:
        if x % p == 0:
            e = 0
            while x % p == 0:
                x //= p
                e += 1
            m *= p ** ((e + 1) // 2)
        p += 1
    if x > 1:
        m *= x
    period = 2 * m
    seen = {}
    bal = 0
    key = (0, 0)
    seen[key] = 1
    total = 0
    for j, ch in enumerate(s, 1):
        bal += 1 if ch in 'aeiou' else -1
        key = (bal, j % period)
        c = seen.get(key, 0)
        total += c
        seen[key] = c + 1
    return total
