def multiply_decimal(a: str, b: str) -> str:
    negative = a.startswith("-") != b.startswith("-")
    a, b = a.lstrip("-"), b.lstrip("-")
    digits = [0] * (len(a) + len(b))
    for i in range(len(a) - 1, -1, -1):
        carry = 0
        for j in range(len(b) - 1, -1, -1):
            total = digits[i + j + 1] + int(a[i]) * int(b[j]) + carry
            digits[i + j + 1] = total % 10
            carry = total // 10
        digits[i] += carry
    start = 0
    while start < len(digits) - 1 and digits[start] == 0:
        start += 1
    text = "".join(str(d) for d in digits[start:])
    if negative and text != "0":
        return "-" + text
    return text


def valid(a, b):
    return all(len(s.lstrip("-")) >= 1 and s.lstrip("-").isdigit() and s.count("-") <= 1 for s in (a, b))
