def is_ipv4_address(s: str) -> bool:
    fields = s.split(".")
    if len(fields) != 4:
        return False
    for field in fields:
        if len(field) == 0 or len(field) > 3:
            return False
        for ch in field:
            if not "0" <= ch <= "9":
                return False
        if len(field) > 1 and field[0] == "0":
            return False
        if int(field) > 255:
            return False
    return True
