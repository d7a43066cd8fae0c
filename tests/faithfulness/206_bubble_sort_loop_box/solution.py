def bubble_sort(items):
    items = list(items)
    while True:
        swapped = False
        for i in range(1, len(items)):
            if items[i - 1] > items[i]:
                items[i - 1], items[i] = items[i], items[i - 1]
                swapped = True
        if not swapped:
            break
    return items
