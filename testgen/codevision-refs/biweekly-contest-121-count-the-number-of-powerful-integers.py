class Solution:
    def numberOfPowerfulInt(self, start: int, finish: int, limit: int, s: str) -> int:
        if any(int(ch) > limit for ch in s):
            return 0  # x ends with s, so some digit of x would exceed limit
        suffix = int(s)
        m = len(s)
        base = min(limit, 9) + 1  # the digits allowed: 0..min(limit, 9)
        # x = suffix itself is a candidate only when s has no leading zero.
        bare = 0 if s[0] == "0" else 1

        def count_upto(n: int) -> int:
            # Powerful x in [1, n]: x = p * 10^m + suffix with every digit of p
            # at most limit (p = 0 allowed: x = suffix itself).
            if n < suffix:
                return 0
            text = str(n)
            if len(text) <= m:
                return bare  # only the suffix itself fits, and suffix <= n
            head = text[:-m]
            tail = int(text[-m:])
            count = 0
            width = len(head)
            for i, ch in enumerate(head):
                d = int(ch)
                # prefixes agreeing with head before i and smaller at i
                count += min(d, base) * base ** (width - i - 1)
                if d > limit:
                    return count - (1 - bare)
            # the prefix equal to head itself
            if tail >= suffix:
                count += 1
            # The count includes p = 0 (x = suffix, as suffix <= n).
            return count - (1 - bare)

        return max(0, count_upto(finish) - count_upto(max(start, 1) - 1))



def valid(start, finish, limit, s):
    """s is a decimal numeral (the statement's also has no leading zero and
    digits at most limit; the count stays well defined without those)."""
    return isinstance(s, str) and len(s) >= 1 and s.isascii() and s.isdigit()
