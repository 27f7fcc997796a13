import math
import torch


def cosine_schedule(t):
    return torch.cos(t * math.pi * 0.5)


def get_mask_subset_prob(mask, prob, min_mask=0):
    batch, seq = mask.shape
    num_to_mask = (mask.sum(dim=-1, keepdim=True) * prob).clamp(min=min_mask)
    logits = torch.rand((batch, seq))
    logits = logits.masked_fill(~mask, -1)

    randperm = logits.argsort(dim=-1).float()

    num_padding = (~mask).sum(dim=-1, keepdim=True)
    randperm -= num_padding

    subset_mask = randperm < num_to_mask
    subset_mask.masked_fill_(~mask, False)
    return subset_mask


class MaskGitCorruptor:
    def __init__(self, mask_id, no_mask_token_prob=0.25):
        self.mask_id = mask_id
        self.no_mask_token_prob = no_mask_token_prob

    def __call__(self, ids, ignore_index=-1):
        batch, seq_len = ids.shape
        rand_time = torch.rand(batch)
        rand_mask_probs = cosine_schedule(rand_time)
        num_token_masked = (seq_len * rand_mask_probs).round().clamp(min=1)

        batch_randperm = torch.rand((batch, seq_len)).argsort(dim=-1)
        mask = batch_randperm < num_token_masked.unsqueeze(-1)

        labels = torch.where(mask, ids, ignore_index)

        no_mask_mask = None
        if self.no_mask_token_prob > 0.:
            no_mask_mask = get_mask_subset_prob(mask, self.no_mask_token_prob)
            mask &= ~no_mask_mask

        x = torch.where(mask, self.mask_id, ids)
        return x, labels, mask, no_mask_mask


if __name__ == "__main__":
    torch.manual_seed(0)
    codebook_size, seq_len = 512, 16
    ids = torch.randint(0, codebook_size, (4, seq_len))
    corruptor = MaskGitCorruptor(mask_id=codebook_size, no_mask_token_prob=0.25)
    x, labels, mask, kept = corruptor(ids)
    target_mask = labels != -1
    for row in range(ids.shape[0]):
        n = int(target_mask[row].sum())
        print(f"row {row}: {n} target tokens, expected {math.ceil(n * 0.25)} left unmasked, "
              f"got {int(kept[row].sum())}")
