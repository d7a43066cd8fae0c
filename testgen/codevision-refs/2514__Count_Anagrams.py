from collections import Counter


def countAnagrams(s: str) -> int:
    MOD = 10 ** 9 + 7
    n = len(s)
    fact = [1] * (n + 1)
    for i in range(1, n + 1):
        fact[i] = fact[i - 1] * i % MOD
    ans = 1
    for w in s.split(' '):
        ways = fact[len(w)]
        for c in Counter(w).values():
            ways = ways * pow(fact[c], MOD - 2, MOD) % MOD
        ans = ans * ways % MOD
    return ans
