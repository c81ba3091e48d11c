import torch


def train(model, batches, criterion, lr, epochs):
    """SGD over `batches` for `epochs` epochs. Returns every step's loss and each epoch's mean loss."""
    opt = torch.optim.SGD(model.parameters(), lr=lr)
    step_losses, epoch_losses = [], []
    for _ in range(epochs):
        total = 0.0
        for x, y in batches:
            opt.zero_grad()
            loss = criterion(model(x), y)
            loss.backward()
            opt.step()
            total += loss
            step_losses.append(loss)
        epoch_losses.append(total / len(batches))
    return {"step_losses": step_losses, "epoch_losses": epoch_losses}
