# expect: Wrong Answer
import torch


def train(model, batches, criterion, lr, epochs):
    opt = torch.optim.SGD(model.parameters(), lr=lr)
    step_losses, epoch_losses = [], []
    total = 0.0  # reset once, not per epoch: later epochs' means include earlier epochs
    for _ in range(epochs):
        for x, y in batches:
            opt.zero_grad()
            loss = criterion(model(x), y)
            loss.backward()
            opt.step()
            value = loss.item()  # a Python float: holds no reference to the step's autograd graph
            total += value
            step_losses.append(value)
        epoch_losses.append(total / len(batches))
    return {"step_losses": step_losses, "epoch_losses": epoch_losses}
