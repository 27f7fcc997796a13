import os
import tempfile

import torch
import torch.nn as nn
import torch.nn.functional as F


class FocalLoss(nn.Module):
    def __init__(self, gamma=2.0, size_average=True):
        super().__init__()
        self.gamma = gamma
        self.size_average = size_average

    def forward(self, input, target):
        """
        Args:
            input (torch.FloatTensor of shape (batch_size, num_classes)): identity logits.
            target (torch.LongTensor of shape (batch_size,)): identity label of each image.

        Returns:
            torch.FloatTensor of shape (): the focal loss.
        """
        target = target.view(-1, 1)
        logpt = F.log_softmax(input, dim=1)
        logpt = logpt.gather(1, target)
        logpt = logpt.view(-1)
        pt = logpt.exp()
        loss = -1 * (1 - pt) ** self.gamma * logpt
        return loss.mean() if self.size_average else loss.sum()


class ReIDFolder:
    """Market-1501 style folder: one sub-directory per person, named by the person ID."""

    def __init__(self, root):
        self.samples = []
        person_dirs = sorted(os.listdir(root))
        self.class_to_idx = {d: i for i, d in enumerate(person_dirs)}
        for person_dir in person_dirs:
            for name in sorted(os.listdir(os.path.join(root, person_dir))):
                self.samples.append((os.path.join(root, person_dir, name), self.class_to_idx[person_dir]))

    def labels(self):
        """
        Returns:
            torch.LongTensor of shape (num_images,): the label of every image.
        """
        return torch.tensor([label for _, label in self.samples])


def make_fake_market(root, person_ids, images_per_id=2):
    for pid in person_ids:
        os.makedirs(os.path.join(root, "%04d" % pid))
        for i in range(images_per_id):
            open(os.path.join(root, "%04d" % pid, "%04d_c%ds1_%06d.jpg" % (pid, i + 1, i)), "w").close()


if __name__ == "__main__":
    torch.manual_seed(0)
    with tempfile.TemporaryDirectory() as root:
        make_fake_market(root, person_ids=[2, 7, 10, 11, 23, 40])
        folder = ReIDFolder(root)
        num_classes = len(os.listdir(root))
        classifier = nn.Linear(32, num_classes)
        features = torch.randn(len(folder.samples), 32)
        logits = classifier(features)
        labels = folder.labels()
        loss = FocalLoss()(logits, labels)
    assert labels.tolist() == [0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5]
    log_probs = F.log_softmax(logits, dim=1)
    total = 0.0
    for n in range(len(labels)):
        lp = log_probs[n, labels[n]].item()
        total += -((1 - torch.tensor(lp).exp().item()) ** 2) * lp
    assert abs(loss.item() - total / len(labels)) < 1e-5
    print("ok")
