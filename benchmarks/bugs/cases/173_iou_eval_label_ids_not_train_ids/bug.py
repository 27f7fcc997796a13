import torch


class iouEval:
    def __init__(self, nClasses, ignoreIndex=19):
        self.nClasses = nClasses
        self.ignoreIndex = ignoreIndex
        self.reset()

    def reset(self):
        classes = self.nClasses - 1 if self.ignoreIndex != -1 else self.nClasses
        self.tp = torch.zeros(classes, dtype=torch.double)
        self.fp = torch.zeros(classes, dtype=torch.double)
        self.fn = torch.zeros(classes, dtype=torch.double)

    def addBatch(self, x, y):
        x_onehot = torch.zeros(x.size(0), self.nClasses, x.size(2), x.size(3))
        x_onehot.scatter_(1, x, 1).float()
        y_onehot = torch.zeros(y.size(0), self.nClasses, y.size(2), y.size(3))
        y_onehot.scatter_(1, y, 1).float()
        if self.ignoreIndex != -1:
            ignores = y_onehot[:, self.ignoreIndex].unsqueeze(1)
            x_onehot, y_onehot = x_onehot[:, : self.ignoreIndex], y_onehot[:, : self.ignoreIndex]
        else:
            ignores = 0
        tpmult = x_onehot * y_onehot
        self.tp += tpmult.sum(dim=(0, 2, 3)).double()
        self.fp += (x_onehot * (1 - y_onehot - ignores)).sum(dim=(0, 2, 3)).double()
        self.fn += ((1 - x_onehot) * y_onehot).sum(dim=(0, 2, 3)).double()

    def getIoU(self):
        iou = self.tp / (self.tp + self.fp + self.fn + 1e-15)
        return iou.mean(), iou


# Cityscapes: 34 raw label ids; 19 evaluated classes (trainIds 0-18), 19 = ignore
LABEL_ID_TO_TRAIN_ID = torch.full((34,), 19, dtype=torch.long)
for train_id, label_id in enumerate([7, 8, 11, 12, 13, 17, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 31, 32, 33]):
    LABEL_ID_TO_TRAIN_ID[label_id] = train_id


def load_label(label_ids):
    return label_ids


if __name__ == "__main__":
    torch.manual_seed(0)
    evaluator = iouEval(nClasses=20)
    outputs = torch.randn(2, 20, 16, 32)
    label_ids = torch.randint(0, 34, (2, 1, 16, 32))
    labels = load_label(label_ids)
    evaluator.addBatch(outputs.max(1)[1].unsqueeze(1), labels)
    print("mean IoU:", evaluator.getIoU()[0].item())
