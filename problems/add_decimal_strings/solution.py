def valid(a: str, b: str) -> bool:
    return all(len(s) > 0 and (s == "0" or s[0] != "0") for s in (a, b))


def add_decimal_strings(a: str, b: str) -> str:
    i, j = len(a) - 1, len(b) - 1
    carry = 0
    digits = []
    while i >= 0 or j >= 0 or carry > 0:
        total = carry
        if i >= 0:
            total += ord(a[i]) - ord("0")
            i -= 1
        if j >= 0:
            total += ord(b[j]) - ord("0")
            j -= 1
        digits.append(str(total % 10))
        carry = total // 10
    return "".join(reversed(digits))
