# expect: Wrong Answer
import torch
import torch.nn as nn


def predict(model, image):
    # stops the running statistics from moving, but training-mode BatchNorm still normalises
    # with the statistics of this one image (and still counts num_batches_tracked)
    for m in model.modules():
        if isinstance(m, nn.BatchNorm2d):
            m.momentum = 0.0
    with torch.no_grad():
        return torch.softmax(model(image.unsqueeze(0))[0], dim=-1)
