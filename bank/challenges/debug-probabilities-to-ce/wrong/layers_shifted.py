# expect: Runtime Error
import torch
import torch.nn as nn


def build_model(d_in, hidden, n_classes):
    # the model outputs logits: CrossEntropyLoss applies log-softmax itself
    # an extra layer in front renames the parameters (1.weight, 3.weight): the checkpoint no longer loads
    return nn.Sequential(nn.Flatten(), nn.Linear(d_in, hidden), nn.ReLU(), nn.Linear(hidden, n_classes))


def predict_proba(model, x):
    with torch.no_grad():
        return torch.softmax(model(x), dim=1)  # probabilities only where they are needed


def train(model, batches, lr):
    opt = torch.optim.SGD(model.parameters(), lr=lr)
    criterion = nn.CrossEntropyLoss()
    losses = []
    for x, y in batches:
        opt.zero_grad()
        loss = criterion(model(x), y)
        loss.backward()
        opt.step()
        losses.append(loss.item())
    return losses
