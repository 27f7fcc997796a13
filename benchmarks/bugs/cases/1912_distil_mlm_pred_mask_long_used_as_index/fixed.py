import math

import torch


class MLMDistillerBatcher:
    def __init__(self, token_counts, vocab_size, special_tok_ids, mlm_mask_prop=0.15,
                 word_mask=0.8, word_keep=0.1, word_rand=0.1, mlm_smoothing=0.7, seed=0):
        self.vocab_size = vocab_size
        self.special_tok_ids = special_tok_ids
        self.mlm_mask_prop = mlm_mask_prop
        self.pred_probs = torch.FloatTensor([word_mask, word_keep, word_rand])
        token_probs = torch.tensor(token_counts, dtype=torch.float).clamp(min=1) ** -mlm_smoothing
        for idx in special_tok_ids.values():
            token_probs[idx] = 0.0
        self.token_probs = token_probs
        self.generator = torch.Generator().manual_seed(seed)

    def prepare_batch_mlm(self, token_ids, lengths):
        bs, max_seq_len = token_ids.size()
        token_ids = token_ids.clone()
        mlm_labels = token_ids.new(token_ids.size()).copy_(token_ids)
        attn_mask = torch.arange(max_seq_len)[None] < lengths[:, None]

        x_prob = self.token_probs[token_ids.flatten()]
        n_tgt = math.ceil(self.mlm_mask_prop * lengths.sum().item())
        tgt_ids = torch.multinomial(x_prob / x_prob.sum(), n_tgt, replacement=False, generator=self.generator)
        pred_mask = torch.zeros(bs * max_seq_len, dtype=torch.bool)
        pred_mask[tgt_ids] = True
        pred_mask = pred_mask.view(bs, max_seq_len)
        pred_mask[token_ids == self.special_tok_ids["pad_token"]] = False

        _token_ids_real = token_ids[pred_mask]
        _token_ids_rand = _token_ids_real.clone().random_(self.vocab_size, generator=self.generator)
        _token_ids_mask = _token_ids_real.clone().fill_(self.special_tok_ids["mask_token"])
        probs = torch.multinomial(self.pred_probs, _token_ids_real.numel(), replacement=True, generator=self.generator)
        probs = probs.view_as(_token_ids_real)
        _token_ids = (
            _token_ids_mask * (probs == 0).long()
            + _token_ids_real * (probs == 1).long()
            + _token_ids_rand * (probs == 2).long()
        )
        token_ids[pred_mask] = _token_ids
        mlm_labels[~pred_mask] = -100
        return token_ids, attn_mask, mlm_labels


def collate(sequences, pad_id):
    lengths = torch.tensor([len(s) for s in sequences])
    batch = torch.full((len(sequences), int(lengths.max())), pad_id, dtype=torch.long)
    for i, s in enumerate(sequences):
        batch[i, : len(s)] = torch.tensor(s)
    return batch, lengths


if __name__ == "__main__":
    special = {"pad_token": 0, "mask_token": 1, "cls_token": 2, "sep_token": 3}
    counts = [0, 0, 0, 0] + [50 + 7 * i for i in range(36)]
    batcher = MLMDistillerBatcher(counts, vocab_size=40, special_tok_ids=special, seed=0)
    sequences = [
        [2, 10, 11, 12, 13, 14, 15, 16, 17, 18, 3],
        [2, 20, 21, 22, 23, 24, 25, 3],
        [2, 30, 31, 32, 33, 34, 35, 36, 37, 3],
    ]
    token_ids, lengths = collate(sequences, special["pad_token"])
    new_ids, attn_mask, labels = batcher.prepare_batch_mlm(token_ids, lengths)

    # reference: redraw the same target positions and check every position one by one
    gen = torch.Generator().manual_seed(0)
    x_prob = batcher.token_probs[token_ids.flatten()]
    n_tgt = math.ceil(batcher.mlm_mask_prop * lengths.sum().item())
    targets = set(torch.multinomial(x_prob / x_prob.sum(), n_tgt, replacement=False, generator=gen).tolist())
    width = token_ids.shape[1]
    n_selected = 0
    for b in range(token_ids.shape[0]):
        for t in range(width):
            orig = token_ids[b, t].item()
            selected = (b * width + t) in targets and orig != special["pad_token"]
            if selected:
                n_selected += 1
                assert labels[b, t].item() == orig
            else:
                assert labels[b, t].item() == -100
                assert new_ids[b, t].item() == orig
    assert n_selected == n_tgt
    assert (labels != -100).sum().item() == n_selected
    print("ok")
