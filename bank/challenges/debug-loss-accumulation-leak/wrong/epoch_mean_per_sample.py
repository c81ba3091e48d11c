# expect: Wrong Answer
import torch


def train(model, batches, criterion, lr, epochs):
    opt = torch.optim.SGD(model.parameters(), lr=lr)
    step_losses, epoch_losses = [], []
    for _ in range(epochs):
        total = 0.0
        for x, y in batches:
            opt.zero_grad()
            loss = criterion(model(x), y)
            loss.backward()
            opt.step()
            value = loss.item()  # a Python float: holds no reference to the step's autograd graph
            total += value
            step_losses.append(value)
        epoch_losses.append(total / sum(x.shape[0] for x, _ in batches))  # the losses are already means
    return {"step_losses": step_losses, "epoch_losses": epoch_losses}
