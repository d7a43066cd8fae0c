def caesar_shift(text: str, k: int) -> str:
    def rotate(ch, first):
        base = ord(first)
        return chr(base + (ord(ch) - base + k) % 26)

    out = []
    for ch in text:
        if "a" <= ch <= "z":
            out.append(rotate(ch, "a"))
        elif "A" <= ch <= "Z":
            out.append(rotate(ch, "A"))
        else:
            out.append(ch)
    return "".join(out)
