n = int(input())
for _ in range(n):
    word = input()
    out = ""
    for ch in word:
        if ch in "aeiou":
            out += ch.upper()
        else:
            out += ch
    print(out)
