# expect: Wrong Answer
import torch
import torch.nn.functional as F


def train(model, batches, lr, epochs):
    opt = torch.optim.SGD(model.parameters(), lr=lr)
    losses = []
    for _ in range(epochs):
        for x, y in batches:
            opt.zero_grad()
            loss = F.mse_loss(model(x).squeeze(0), y)  # squeezes the batch dim: a no-op unless n == 1
            loss.backward()
            opt.step()
            losses.append(loss.item())
    return losses


def evaluate(model, x, y):
    with torch.no_grad():
        return F.mse_loss(model(x).squeeze(0), y).item()
