import torch
from torch import nn


def apply_delay_pattern_mask(input_ids, decoder_pad_token_mask):
    """Apply a delay pattern mask to the decoder input ids, only preserving predictions where
    the mask is set to -1, and otherwise setting to the value detailed in the mask."""
    seq_len = input_ids.shape[-1]
    decoder_pad_token_mask = decoder_pad_token_mask[..., :seq_len]
    input_ids = torch.where(decoder_pad_token_mask == -1, input_ids, decoder_pad_token_mask)
    return input_ids


def build_delay_pattern_mask(
    input_ids: torch.LongTensor, bos_token_id: int, pad_token_id: int, max_length: int, num_codebooks: int
):
    """Build a delayed pattern mask to the input_ids. Each codebook is offset by the previous codebook by
    one, giving a delayed pattern mask at the start of sequence and end of sequence. Take the example where there
    are 4 codebooks and a max sequence length of 8, we have the delayed pattern mask of shape `(codebooks,
    seq_len)`:
    - [B, -1, -1, -1, -1, P, P, P]
    - [B, B, -1, -1, -1, -1, P, P]
    - [B, B, B, -1, -1, -1, -1, P]
    - [B, B, B, B, -1, -1, -1, -1]
    where P is the special padding token id and -1 indicates that the token is valid for prediction. If we include
    a prompt (decoder input ids), the -1 positions indicate where new tokens should be predicted. Otherwise, the
    mask is set to the value in the prompt:
    - [B, a, b, -1, -1, P, P, P]
    - [B, B, c, d, -1, -1, P, P]
    - [B, B, B, e, f, -1, -1, P]
    - [B, B, B, B, g, h, -1, -1]
    where a-h indicate the input prompt (decoder input ids) that are offset by 1. Now, we only override the -1
    tokens in our prediction.

    input_ids: (bsz * num_codebooks, seq_len), starting with the BOS column
    returns: the delayed prompt (bsz * num_codebooks, first_start_id) and the pattern mask (bsz * num_codebooks, max_length)
    """
    # (bsz * num_codebooks, seq_len) -> (bsz, num_codebooks, seq_len)
    input_ids = input_ids.reshape(-1, num_codebooks, input_ids.shape[-1])
    bsz, num_codebooks, seq_len = input_ids.shape

    input_ids_shifted = torch.ones((bsz, num_codebooks, max_length), dtype=torch.long, device=input_ids.device) * -1

    # we only apply the mask if we have a large enough seq len - otherwise we return as is
    if max_length < 2 * num_codebooks - 1:
        return input_ids.reshape(bsz * num_codebooks, -1), input_ids_shifted.reshape(bsz * num_codebooks, -1)

    # fill the shifted ids with the prompt entries, offset by the codebook idx
    for codebook in range(num_codebooks):
        # mono channel - loop over the codebooks one-by-one
        input_ids_shifted[:, codebook, codebook : seq_len + codebook] = input_ids[:, codebook]

    # construct a pattern mask that indicates the positions of padding tokens for each codebook
    # first fill the upper triangular part (the EOS padding)
    eos_delay_pattern = torch.triu(
        torch.ones((num_codebooks, max_length), dtype=torch.bool), diagonal=max_length - num_codebooks + 1
    )
    # then fill the lower triangular part (the BOS padding)
    bos_delay_pattern = torch.tril(torch.ones((num_codebooks, max_length), dtype=torch.bool))

    bos_mask = ~(bos_delay_pattern).to(input_ids.device)
    eos_mask = ~(eos_delay_pattern).to(input_ids.device)
    mask = ~(bos_delay_pattern + eos_delay_pattern).to(input_ids.device)
    input_ids = mask * input_ids_shifted + ~bos_mask * bos_token_id + ~eos_mask * pad_token_id

    # find the first position to start generating - this is the first place we have the -1 token
    # and will always be in the first codebook (since it has no codebook offset)
    first_codebook_ids = input_ids[:, 0, :]
    start_ids = (first_codebook_ids == -1).nonzero()[:, 1]
    if len(start_ids) > 0:
        first_start_id = min(start_ids)
    else:
        # we have no tokens that need to be filled - return entire matrix of input ids
        first_start_id = seq_len

    # (bsz * num_codebooks, seq_len) -> (bsz, num_codebooks, seq_len)
    pattern_mask = input_ids.reshape(bsz * num_codebooks, -1)
    input_ids = input_ids[..., :first_start_id].reshape(bsz * num_codebooks, -1)
    return input_ids, pattern_mask


class TinyCodecDecoder(nn.Module):
    """Audio-token decoder: one embedding and one head per codebook, GRU in between."""

    def __init__(self, num_codebooks, vocab_size, dim, bos_token_id, pad_token_id):
        super().__init__()
        self.num_codebooks = num_codebooks
        self.bos_token_id = bos_token_id
        self.pad_token_id = pad_token_id
        self.embed_tokens = nn.ModuleList([nn.Embedding(vocab_size + 2, dim) for _ in range(num_codebooks)])
        self.rnn = nn.GRU(dim, dim, batch_first=True)
        self.lm_heads = nn.ModuleList([nn.Linear(dim, vocab_size) for _ in range(num_codebooks)])

    def forward(self, input_ids):
        """input_ids: (bsz * num_codebooks, seq_len) -> logits (bsz * num_codebooks, seq_len, vocab_size)"""
        input_ids = input_ids.reshape(-1, self.num_codebooks, input_ids.shape[-1])
        hidden = sum(self.embed_tokens[k](input_ids[:, k]) for k in range(self.num_codebooks))
        hidden, _ = self.rnn(hidden)
        logits = torch.stack([head(hidden) for head in self.lm_heads], dim=1)
        return logits.reshape(-1, *logits.shape[2:])

    def build_delay_pattern_mask(self, input_ids, bos_token_id, pad_token_id, max_length):
        return build_delay_pattern_mask(input_ids, bos_token_id, pad_token_id, max_length, self.num_codebooks)

    @torch.no_grad()
    def _sample(self, input_ids, decoder_delay_pattern_mask, max_length):
        while input_ids.shape[-1] < max_length:
            input_ids = apply_delay_pattern_mask(input_ids, decoder_delay_pattern_mask)
            next_token_logits = self(input_ids)[:, -1]
            next_tokens = next_token_logits.argmax(dim=-1)
            input_ids = torch.cat([input_ids, next_tokens[:, None]], dim=-1)
        return input_ids

    @torch.no_grad()
    def generate(self, prompt_codes, max_length):
        """prompt_codes: (bsz, num_codebooks, prompt_len) audio codes to continue.

        returns: (bsz, num_codebooks, max_length - num_codebooks) codes with the delay reverted
        """
        batch_size = prompt_codes.shape[0]
        bos = torch.full((batch_size, self.num_codebooks, 1), self.bos_token_id, dtype=torch.long)
        input_ids = torch.cat([bos, prompt_codes], dim=-1).reshape(batch_size * self.num_codebooks, -1)

        # build the delay pattern mask for offsetting each codebook prediction by 1
        input_ids, decoder_delay_pattern_mask = self.build_delay_pattern_mask(
            input_ids,
            bos_token_id=self.bos_token_id,
            pad_token_id=self.pad_token_id,
            max_length=max_length,
        )

        output_ids = self._sample(input_ids, decoder_delay_pattern_mask, max_length)

        # Apply the pattern mask to the final ids
        output_ids = apply_delay_pattern_mask(output_ids, decoder_delay_pattern_mask)

        # Revert the pattern delay mask by filtering the eos and bos token ids from the delay pattern mask
        _, mask = self.build_delay_pattern_mask(
            input_ids,
            bos_token_id=self.bos_token_id,
            pad_token_id=self.pad_token_id,
            max_length=output_ids.shape[1],
        )

        mask = (mask != self.bos_token_id) & (mask != self.pad_token_id)
        output_ids = output_ids[mask].reshape(batch_size, self.num_codebooks, -1)
        return output_ids


if __name__ == "__main__":
    torch.manual_seed(0)
    num_codebooks, vocab_size = 4, 32
    bos_token_id, pad_token_id = vocab_size, vocab_size + 1
    decoder = TinyCodecDecoder(num_codebooks, vocab_size, dim=16, bos_token_id=bos_token_id, pad_token_id=pad_token_id).eval()

    # voice continuation: 3 frames of reference audio codes per utterance
    prompt_codes = torch.randint(0, vocab_size, (2, num_codebooks, 3))
    audio_codes = decoder.generate(prompt_codes, max_length=14)
    print("audio codes:", tuple(audio_codes.shape))
