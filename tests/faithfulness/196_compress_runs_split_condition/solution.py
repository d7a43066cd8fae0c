def compress(s):
    if not s:
        return ""
    out = ""
    count = 1
    for i in range(1, len(s) + 1):
        if i < len(s) and s[i] == s[i - 1]:
            count += 1
        else:
            out += s[i - 1]
            if count > 1:
                out += str(count)
            count = 1
    return out
