# expect: Time Limit Exceeded
import torch


def box_iou(a, b):
    out = torch.zeros(len(a), len(b), dtype=a.dtype)
    for i in range(len(a)):
        for j in range(len(b)):
            x1, y1 = max(a[i, 0], b[j, 0]), max(a[i, 1], b[j, 1])
            x2, y2 = min(a[i, 2], b[j, 2]), min(a[i, 3], b[j, 3])
            inter = max(x2 - x1, 0) * max(y2 - y1, 0)
            union = (a[i, 2] - a[i, 0]) * (a[i, 3] - a[i, 1]) + (b[j, 2] - b[j, 0]) * (b[j, 3] - b[j, 1]) - inter
            out[i, j] = inter / union if union > 0 else 0.0
    return out


def nms(boxes, scores, iou_threshold):
    order = torch.sort(scores, descending=True, stable=True).indices
    iou = box_iou(boxes, boxes)
    suppressed = torch.zeros(len(boxes), dtype=torch.bool)
    keep = []
    for i in order.tolist():
        if not suppressed[i]:
            keep.append(i)
            suppressed |= iou[i] > iou_threshold
    return torch.tensor(keep, dtype=torch.int64)
