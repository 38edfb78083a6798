def add(a, b):
    return a + b


def divide(a, b):
    if b == 0:
        raise ZeroDivisionError("division by zero")
    return a / b


def mean(values):
    values = list(values)
    return sum(values) / len(values)
