import torch

NUM_CLASSES = 41
IGNORE_LABEL = -1
VALID_CLASS_IDS = (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 14, 16, 24, 28, 33, 34, 36, 39)
DONOTCARE_CLASS_IDS = (0,)


class PointCloud:
    def __init__(self, pos, rgb, y):
        self.pos, self.rgb, self.y = pos, rgb, y


class ScannetSegmentation:
    def __init__(self, valid_class_idx=VALID_CLASS_IDS, donotcare_class_ids=DONOTCARE_CLASS_IDS):
        self.valid_class_idx = valid_class_idx
        self.donotcare_class_ids = donotcare_class_ids

    def _remap_labels(self, data):
        """Remaps NYU40 labels to [0 ; num_labels - 1], everything else to IGNORE_LABEL."""
        mapping_dict = {indice: idx for idx, indice in enumerate(self.valid_class_idx)}
        for idx in range(NUM_CLASSES):
            if idx not in mapping_dict:
                mapping_dict[idx] = IGNORE_LABEL
        for idx in self.donotcare_class_ids:
            mapping_dict[idx] = IGNORE_LABEL
        for source, target in mapping_dict.items():
            mask = data.y == source
            data.y[mask] = target
        return data

    def process_scene(self, pos, rgb, raw_labels):
        data = PointCloud(pos, rgb, raw_labels.clone())
        return self._remap_labels(data)


if __name__ == "__main__":
    torch.manual_seed(0)
    pos = torch.rand(2000, 3) * 5.0
    rgb = torch.rand(2000, 3)
    raw = torch.randint(0, NUM_CLASSES, (2000,))
    ds = ScannetSegmentation()
    data = ds.process_scene(pos, rgb, raw)
    counts = torch.bincount(data.y[data.y >= 0], minlength=len(VALID_CLASS_IDS))
    print("points per train class:", counts.tolist())
    print("raw 'wall' (1) points:", int((raw == 1).sum()), "-> class 0 after remap:", int((data.y == 0).sum()))
