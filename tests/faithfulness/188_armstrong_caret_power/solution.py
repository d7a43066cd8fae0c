def is_armstrong(n):
    digits = str(n)
    k = len(digits)
    total = 0
    for d in digits:
        total += int(d) ** k
    return total == n
