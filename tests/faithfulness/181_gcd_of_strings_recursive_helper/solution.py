def gcd(a, b):
    if b == 0:
        return a
    return gcd(b, a % b)


def gcd_of_strings(str1, str2):
    if str1 + str2 != str2 + str1:
        return ""
    return str1[:gcd(len(str1), len(str2))]
