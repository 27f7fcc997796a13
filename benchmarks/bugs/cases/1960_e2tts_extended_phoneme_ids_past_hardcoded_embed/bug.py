import torch
import torch.nn.functional as F
from torch import nn, tensor
from torch.nn import Module
from torch.nn.utils.rnn import pad_sequence
from jaxtyping import Float, Int
from torch import Tensor


def exists(v):
    return v is not None


def default(v, d):
    return v if exists(v) else d


def pad_to_length(t: Tensor, length: int, value=0):
    seq_len = t.shape[-1]
    if length > seq_len:
        t = F.pad(t, (0, length - seq_len), value=value)
    return t[..., :length]


# a stand-in for g2p_en.G2p: 4 special symbols followed by the 70 stressed ARPAbet phonemes

ARPABET = ['AA', 'AE', 'AH', 'AO', 'AW', 'AY', 'EH', 'ER', 'EY', 'IH', 'IY', 'OW', 'OY', 'UH', 'UW']
CONSONANTS = ['B', 'CH', 'D', 'DH', 'F', 'G', 'HH', 'JH', 'K', 'L', 'M', 'N', 'NG', 'P', 'R',
              'S', 'SH', 'T', 'TH', 'V', 'W', 'Y', 'Z', 'ZH']


class G2p:
    def __init__(self):
        phonemes = ['<pad>', '<unk>', '<s>', '</s>']
        phonemes += [v + s for v in ARPABET for s in ('0', '1', '2')] + CONSONANTS + ['AX0']
        self.phonemes = phonemes
        self.p2idx = {p: i for i, p in enumerate(phonemes)}
        self.lexicon = {
            'the': ['DH', 'AH0'], 'cat': ['K', 'AE1', 'T'], 'sat': ['S', 'AE1', 'T'],
            'on': ['AA1', 'N'], 'mat': ['M', 'AE1', 'T'], 'hello': ['HH', 'AH0', 'L', 'OW1'],
            'world': ['W', 'ER1', 'L', 'D'],
        }

    def __call__(self, text: str):
        out = []
        for i, word in enumerate(text.lower().replace(',', ' ,').replace('.', ' .').split()):
            if i > 0:
                out.append(' ')
            out.extend(self.lexicon.get(word, [word]))
        return out


# simple english phoneme-based tokenizer

def get_g2p_en_encode():
    g2p = G2p()

    # used by @lucasnewman successfully here
    # https://github.com/lucasnewman/e2-tts-pytorch/blob/ljspeech-test/e2_tts_pytorch/e2_tts.py

    phoneme_to_index = g2p.p2idx
    num_phonemes = len(phoneme_to_index)

    extended_chars = [' ', ',', '.', '-', '!', '?', '\'', '"', '...', '..', '. .', '. . .', '. . . .', '. . . . .', '. ...', '... .', '.. ..']
    num_extended_chars = len(extended_chars)

    extended_chars_dict = {p: (num_phonemes + i) for i, p in enumerate(extended_chars)}
    phoneme_to_index = {**phoneme_to_index, **extended_chars_dict}

    def encode(
        text: list[str],
        padding_value = -1
    ) -> Int[Tensor, 'b nt']:

        phonemes = [g2p(t) for t in text]
        list_tensors = [tensor([phoneme_to_index[p] for p in one_phoneme]) for one_phoneme in phonemes]
        padded_tensor = pad_sequence(list_tensors, padding_value = -1, batch_first = True)
        return padded_tensor

    return encode


class CharacterEmbed(Module):
    def __init__(
        self,
        dim,
        num_embeds = 256,
    ):
        super().__init__()
        self.dim = dim
        self.embed = nn.Embedding(num_embeds + 1, dim) # will just use 0 as the 'filler token'

    def forward(
        self,
        text: Int[Tensor, 'b nt'],
        max_seq_len: int,
    ) -> Float[Tensor, 'b n d']:

        text = text + 1 # shift all other token ids up by 1 and use 0 as filler token

        text = text[:, :max_seq_len] # just curtail if character tokens are more than the mel spec tokens
        text = pad_to_length(text, max_seq_len, value = 0)

        return self.embed(text)


class E2TTS(Module):
    def __init__(
        self,
        dim = 64,
        dim_text = 32,
        num_channels = 20,
        tokenizer = 'phoneme_en',
        text_num_embeds = None,
    ):
        super().__init__()

        if tokenizer == 'char_utf8':
            text_num_embeds = 256
            self.tokenizer = None
        elif tokenizer == 'phoneme_en':
            text_num_embeds = 74
            self.tokenizer = get_g2p_en_encode()
        else:
            assert exists(text_num_embeds), '`text_num_embeds` must be given if supplying your own tokenizer encode function'
            self.tokenizer = tokenizer

        self.num_channels = num_channels
        self.embed_text = CharacterEmbed(dim_text, num_embeds = text_num_embeds)
        self.proj_in = nn.Linear(num_channels * 2 + dim_text, dim)
        self.to_pred = nn.Linear(dim, num_channels)

    def forward(
        self,
        inp: Float[Tensor, 'b n d'],
        text: list[str],
        cond: Float[Tensor, 'b n d'] | None = None,
    ) -> Float[Tensor, 'b n d']:
        batch, seq_len = inp.shape[:2]
        cond = default(cond, torch.zeros_like(inp))

        text_ids: Int[Tensor, 'b nt'] = self.tokenizer(text)
        text_embed = self.embed_text(text_ids, seq_len)

        x = self.proj_in(torch.cat((inp, cond, text_embed), dim = -1))
        return self.to_pred(x.relu())


if __name__ == "__main__":
    torch.manual_seed(0)
    model = E2TTS(dim = 64, dim_text = 32, num_channels = 20)

    texts = ["The cat sat on the mat.", "Hello, world"]
    mel = torch.randn(2, 40, 20)   # two utterances, 40 mel frames each
    pred = model(mel, texts)
    print("flow prediction:", tuple(pred.shape))
