# expect: Wrong Answer
import torch


def _mse(pred, y):
    return ((pred - y) ** 2).mean()  # no warning any more, same (n, n) broadcast


def train(model, batches, lr, epochs):
    opt = torch.optim.SGD(model.parameters(), lr=lr)
    losses = []
    for _ in range(epochs):
        for x, y in batches:
            opt.zero_grad()
            loss = _mse(model(x), y)
            loss.backward()
            opt.step()
            losses.append(loss.item())
    return losses


def evaluate(model, x, y):
    with torch.no_grad():
        return _mse(model(x), y).item()
