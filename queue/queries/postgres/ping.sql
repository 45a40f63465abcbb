SELECT count(*) FROM apalis.jobs WHERE false
