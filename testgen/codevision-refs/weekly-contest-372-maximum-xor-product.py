class Solution:
    def maximumXorProduct(self, a: int, b: int, n: int) -> int:
        MOD = 10 ** 9 + 7
        # bits at positions >= n cannot be changed by x
        x = (a >> n) << n
        y = (b >> n) << n
        for i in range(n - 1, -1, -1):
            ba = (a >> i) & 1
            bb = (b >> i) & 1
            if ba == bb:
                # x can make this bit 1 in both factors
                x |= 1 << i
                y |= 1 << i
            elif x <= y:
                # exactly one factor gets the bit: give it to the smaller one
                x |= 1 << i
            else:
                y |= 1 << i
        return (x % MOD) * (y % MOD) % MOD


def valid(a, b, n):
    """The statement's constraints: 0 <= a, b < 2^50, 0 <= n <= 50."""
    return all(type(v) is int for v in (a, b, n)) and 0 <= a < 1 << 50 and 0 <= b < 1 << 50 and 0 <= n <= 50
