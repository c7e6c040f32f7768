from django import forms
from django.utils.translation import gettext_lazy as _

from .restore import MAX_BYTES, ImportRefused, Restored, read_document, restore_table


class RestoreForm(forms.Form):
    """The upload: read and restored as a preview (rolled back), nothing kept yet."""

    export = forms.FileField(
        label=_("Table export (.json)"),
        help_text=_("The file “Download the table export” gives, on this server or another."),
    )

    def __init__(self, *args, gm, **kwargs):
        super().__init__(*args, **kwargs)
        self.gm = gm

    def clean_export(self):
        upload = self.cleaned_data["export"]
        if upload.size > MAX_BYTES:
            raise forms.ValidationError(
                _("The file is larger than %(size)s MB: not a table export."),
                params={"size": MAX_BYTES // (1024 * 1024)},
            )
        raw = upload.read()
        try:
            document = read_document(raw)
            self.preview: Restored = restore_table(document, gm=self.gm, preview=True)
        except ImportRefused as error:
            raise forms.ValidationError(str(error)) from None
        self.text = raw.decode("utf-8-sig")
        return upload
