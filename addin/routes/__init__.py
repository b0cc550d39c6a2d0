"""The routes into Excel: the xlwings Lite bundle (:mod:`~addin.routes.lite`), the Lite
code inside a workbook (:mod:`~addin.routes.embed`), the classic add-in's set-up
(:mod:`~addin.routes.install`). The add-in's UDF module stays :mod:`addin.xlwings_udfs`."""
