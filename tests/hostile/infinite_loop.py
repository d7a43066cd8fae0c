# job: script
# expect: status=timeout
while True:
    pass
