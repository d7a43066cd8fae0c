DIGITS = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def to_base(n: int, base: int) -> str:
    if n == 0:
        return "0"
    sign = ""
    if n < 0:
        sign = "-"
        n = -n
    digits = []
    while n > 0:
        digits.append(DIGITS[n % base])
        n //= base
    return sign + "".join(reversed(digits))
