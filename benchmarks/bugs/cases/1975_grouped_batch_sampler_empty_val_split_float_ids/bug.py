import bisect
import copy
import itertools
from collections import defaultdict

import torch
from torch.utils.data import Dataset
from torch.utils.data.sampler import BatchSampler, Sampler, SequentialSampler


class AVAClipDataset(Dataset):
    """Keyframe clips of the AVA videos; at test time the person boxes come from a detector."""

    def __init__(self, clips, box_results=None, box_thresh=0.0):
        clip_ids = sorted(c["id"] for c in clips)
        self.clips = {c["id"]: c for c in clips}
        if box_results is not None:
            # we use detected boxes, so remove clips without boxes detected.
            img_to_boxes = self.load_box_results(box_results, box_thresh)
            clip_ids = [img_id for img_id in clip_ids if len(img_to_boxes[img_id]) > 0]
            self.det_persons = {i: img_to_boxes[i] for i in clip_ids}
        self.clip_ids = clip_ids

    @staticmethod
    def load_box_results(box_results, score_thresh=0.0):
        img_to_boxes = defaultdict(list)
        for box in box_results:
            if box["score"] >= score_thresh:
                img_to_boxes[box["image_id"]].append(box)
        return img_to_boxes

    def get_video_info(self, index):
        clip = self.clips[self.clip_ids[index]]
        return dict(width=clip["width"], height=clip["height"], movie=clip["movie"], timestamp=clip["timestamp"])

    def __len__(self):
        return len(self.clip_ids)

    def __getitem__(self, idx):
        clip = self.clips[self.clip_ids[idx]]
        return torch.zeros(3, 4, clip["height"] // 40, clip["width"] // 40), self.clip_ids[idx]


class GroupedBatchSampler(BatchSampler):
    """
    Wraps another sampler to yield a mini-batch of indices.
    It enforces that elements from the same group should appear in groups of batch_size.
    """

    def __init__(self, sampler, group_ids, batch_size, drop_uneven=False):
        self.sampler = sampler
        self.group_ids = torch.as_tensor(group_ids)
        assert self.group_ids.dim() == 1
        self.batch_size = batch_size
        self.drop_uneven = drop_uneven
        self.groups = torch.unique(self.group_ids).sort(0)[0]

    def _prepare_batches(self):
        dataset_size = len(self.group_ids)
        # get the sampled indices from the sampler
        sampled_ids = torch.as_tensor(list(self.sampler))
        # construct a tensor which contains -1 if the element was
        # not sampled, and a non-negative number indicating the
        # order where the element was sampled.
        # for example. if sampled_ids = [3, 1] and dataset_size = 5,
        # the order is [-1, 1, -1, 0, -1]
        order = torch.full((dataset_size,), -1, dtype=torch.int64)
        order[sampled_ids] = torch.arange(len(sampled_ids))

        # get a mask with the elements that were sampled
        mask = order >= 0
        # find the elements that belong to each individual cluster
        clusters = [(self.group_ids == i) & mask for i in self.groups]
        # get relative order of the elements inside each cluster
        relative_order = [order[cluster] for cluster in clusters]
        permutation_ids = [s[s.sort()[1]] for s in relative_order]
        permuted_clusters = [sampled_ids[idx] for idx in permutation_ids]

        # splits each cluster in batch_size, and merge as a list of tensors
        splits = [c.split(self.batch_size) for c in permuted_clusters]
        merged = tuple(itertools.chain.from_iterable(splits))

        # order the batches by the sampler position of their first element
        first_element_of_batch = [t[0].item() for t in merged]
        inv_sampled_ids_map = {v: k for k, v in enumerate(sampled_ids.tolist())}
        first_index_of_batch = torch.as_tensor([inv_sampled_ids_map[s] for s in first_element_of_batch])
        permutation_order = first_index_of_batch.sort(0)[1].tolist()
        batches = [merged[i].tolist() for i in permutation_order]

        if self.drop_uneven:
            batches = [b for b in batches if len(b) == self.batch_size]
        return batches

    def __iter__(self):
        batches = self._prepare_batches()
        self._batches = batches
        return iter(batches)

    def __len__(self):
        if not hasattr(self, "_batches"):
            self._batches = self._prepare_batches()
        return len(self._batches)


def _quantize(x, bins):
    bins = copy.copy(bins)
    bins = sorted(bins)
    return [bisect.bisect_right(bins, y) for y in x]


def _compute_aspect_ratios(dataset):
    aspect_ratios = []
    for i in range(len(dataset)):
        video_info = dataset.get_video_info(i)
        aspect_ratios.append(float(video_info["height"]) / float(video_info["width"]))
    return aspect_ratios


def make_batch_data_sampler(dataset, sampler, aspect_grouping, videos_per_batch):
    aspect_ratios = _compute_aspect_ratios(dataset)
    group_ids = _quantize(aspect_ratios, aspect_grouping)
    return GroupedBatchSampler(sampler, group_ids, videos_per_batch, drop_uneven=False)


def make_clips(movie_sizes, timestamps, first_id):
    clips, cid = [], first_id
    for movie, (w, h) in movie_sizes.items():
        for t in timestamps:
            clips.append(dict(id=cid, movie=movie, timestamp=t, width=w, height=h))
            cid += 1
    return clips


if __name__ == "__main__":
    train_clips = make_clips({"-5KQ66BBWC4": (640, 360), "053oq2xB3oU": (480, 640)}, range(902, 906), first_id=0)
    val_clips = make_clips({"1j20qq1JyX4": (640, 480), "2PpxiG0WU18": (360, 640)}, range(902, 905), first_id=100)
    # the person boxes of the *train* split were given as the validation box file
    train_det_boxes = [dict(image_id=c["id"], bbox=[0.1, 0.1, 0.5, 0.9], score=0.9) for c in train_clips]

    val_set = AVAClipDataset(val_clips, box_results=train_det_boxes, box_thresh=0.8)
    batch_sampler = make_batch_data_sampler(val_set, SequentialSampler(val_set), [1], videos_per_batch=2)
    print("val clips:", len(val_set))
    print("val batches:", len(batch_sampler))
