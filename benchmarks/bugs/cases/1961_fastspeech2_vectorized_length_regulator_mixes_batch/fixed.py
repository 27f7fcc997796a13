import torch
import torch.nn as nn
import torch.nn.functional as F

device = torch.device("cpu")


def get_mask_from_lengths(lengths, max_len=None):
    """Padding mask from lengths.

    lengths: (N,) LongTensor
    returns: (N, max_len) BoolTensor, True on padded positions
    """
    batch_size = lengths.shape[0]
    if max_len is None:
        max_len = torch.max(lengths).item()
    ids = torch.arange(0, max_len).unsqueeze(0).expand(batch_size, -1).to(device)
    mask = ids >= lengths.unsqueeze(1).expand(-1, max_len)
    return mask


def pad(input_ele, mel_max_length=None):
    """Pad a list of (T_i, D) tensors, or a (N, T, D) tensor, to (N, max_len, D) with zeros."""
    if mel_max_length:
        max_len = mel_max_length
    else:
        max_len = max([input_ele[i].size(0) for i in range(len(input_ele))])

    out_list = list()
    for i, batch in enumerate(input_ele):
        one_batch_padded = F.pad(batch, (0, 0, 0, max_len - batch.size(0)), "constant", 0.0)
        out_list.append(one_batch_padded)
    out_padded = torch.stack(out_list)
    return out_padded


class LengthRegulator(nn.Module):
    """ Length Regulator """

    def __init__(self):
        super(LengthRegulator, self).__init__()

    def LR(self, x, duration, max_len):
        """Expand phoneme hiddens to frame level.

        x: (N, T, D) encoder output, padded phonemes are zeros
        duration: (N, T) LongTensor, number of mel frames of every phoneme (0 on padding)
        max_len: int or None, target number of frames

        returns: (N, max_len, D) frame-level hiddens and (N,) mel lengths
        """
        output = list()
        mel_len = list()
        for batch, expand_target in zip(x, duration):
            expanded = torch.repeat_interleave(batch, expand_target, dim=0)
            output.append(expanded)
            mel_len.append(expanded.shape[0])

        if max_len is not None:
            output = pad(output, max_len)
        else:
            output = pad(output)

        return output, torch.LongTensor(mel_len).to(device)

    def forward(self, x, duration, max_len):
        output, mel_len = self.LR(x, duration, max_len)
        return output, mel_len


class VarianceAdaptor(nn.Module):
    """Duration part of the FastSpeech2 variance adaptor (teacher-forced durations)."""

    def __init__(self, d_model):
        super(VarianceAdaptor, self).__init__()
        self.duration_predictor = nn.Linear(d_model, 1)
        self.length_regulator = LengthRegulator()

    def forward(self, x, src_mask, duration_target, max_mel_len):
        """x: (N, T, D); src_mask: (N, T) True on padding; duration_target: (N, T)."""
        log_duration_prediction = self.duration_predictor(x).squeeze(-1)
        log_duration_prediction = log_duration_prediction.masked_fill(src_mask, 0.0)
        x, mel_len = self.length_regulator(x, duration_target, max_mel_len)
        mel_mask = get_mask_from_lengths(mel_len, max_mel_len)
        return x, log_duration_prediction, mel_len, mel_mask


if __name__ == "__main__":
    torch.manual_seed(0)
    d_model = 8
    src_lens = torch.tensor([4, 3])
    max_src_len = 4
    src_mask = get_mask_from_lengths(src_lens, max_src_len)
    encoder_out = torch.randn(2, max_src_len, d_model).masked_fill(src_mask.unsqueeze(-1), 0.0)
    # durations from the forced aligner, 0 on the padded phoneme
    duration_target = torch.tensor([[2, 1, 3, 1],
                                    [3, 4, 2, 0]])
    max_mel_len = 9

    adaptor = VarianceAdaptor(d_model)
    frames, _, mel_len, mel_mask = adaptor(encoder_out, src_mask, duration_target, max_mel_len)

    # reference: expand every phoneme by hand
    for b in range(2):
        expected = []
        for t in range(max_src_len):
            for _ in range(int(duration_target[b, t])):
                expected.append(encoder_out[b, t])
        assert mel_len[b].item() == len(expected)
        for f in range(max_mel_len):
            want = expected[f] if f < len(expected) else torch.zeros(d_model)
            assert torch.equal(frames[b, f], want), (b, f)
            assert bool(mel_mask[b, f]) == (f >= len(expected))
    print("ok")
