def valid(dict):
    """Inputs where the reference's answer is the documented one."""
    keys = list(dict)
    documented = bool(keys) and (all(isinstance(k, str) and k.islower() for k in keys)
                                 or all(isinstance(k, str) and k.isupper() for k in keys))
    return documented == check_dict_case(dict)
