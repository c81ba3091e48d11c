# expect: Wrong Answer
import torch
import torch.nn as nn


def build_model(d_in, hidden, n_classes):
    return nn.Sequential(nn.Linear(d_in, hidden), nn.ReLU(), nn.Linear(hidden, n_classes))


def predict_proba(model, x):
    with torch.no_grad():
        return model(x)  # the softmax was removed from the model, and from inference with it


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
