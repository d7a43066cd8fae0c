def is_happy(n):
    seen = set()
    while True:
        n = sum(int(d) ** 2 for d in str(n))
        if n == 1:
            return True
        if n in seen:
            return False
        seen.add(n)
